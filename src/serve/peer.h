/* peer.h: who is at the other end of an LMTP connection (a uid on a unix socket, an address on TCP), for the limit of connections one peer may hold. */
#ifndef NGOMA_PEER_H
#define NGOMA_PEER_H

#define PEER_NAME_MAX 64

/* "uid 104" for a unix socket's peer, "127.0.0.1" or "::1" for TCP's;
 * "unknown" when the system does not say. */
void peer_name(int fd, char out[PEER_NAME_MAX]);

#endif
