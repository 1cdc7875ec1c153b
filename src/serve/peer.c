/* peer.c: who is at the other end of an LMTP connection (a uid on a unix socket, an address on TCP), for the limit of connections one peer may hold. */
#define _GNU_SOURCE /* struct ucred */
#include "serve/peer.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

void peer_name(int fd, char out[PEER_NAME_MAX])
{
    struct sockaddr_storage ss;
    socklen_t len = sizeof(ss);
    snprintf(out, PEER_NAME_MAX, "unknown");
    memset(&ss, 0, sizeof(ss));
    if (getpeername(fd, (struct sockaddr *)&ss, &len))
        return;
    if (ss.ss_family == AF_UNIX) {
        struct ucred cred;
        socklen_t cl = sizeof(cred);
        if (!getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cl))
            snprintf(out, PEER_NAME_MAX, "uid %u", (unsigned)cred.uid);
    } else if (ss.ss_family == AF_INET) {
        inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, out, PEER_NAME_MAX);
    } else if (ss.ss_family == AF_INET6) {
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&ss)->sin6_addr, out, PEER_NAME_MAX);
    }
}
