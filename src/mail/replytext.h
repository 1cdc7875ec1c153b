/* replytext.h: the sender's own words in a reply: where the common clients, in the languages players write, start quoting the mail answered. */
#ifndef NGOMA_REPLYTEXT_H
#define NGOMA_REPLYTEXT_H

/*
 * The part of a reply that is the sender's own, owned. The text stops
 * where a copy of the mail answered starts unquoted: a separator line
 * ("-----Original Message-----", "-------- Original Message --------",
 * "----- Original Message -----", "---------- Forwarded message ---------"
 * and their translations, Outlook's rule of underscores), a header block
 * of the original (From: with Sent:, To: or Subject: under it, in English,
 * French, German, Spanish, Portuguese, Italian, Dutch and the Nordic
 * languages), "Sent from my ..." or "Begin forwarded message:". An
 * attribution line ("On ... wrote:", "Le ... a écrit :", "Am ... schrieb
 * ...:", "El ... escribió:", "Em ... escreveu:", "Il ... ha scritto:",
 * "Op ... schreef ...:"), also wrapped over two lines, goes; the '>' quote
 * under it is left to the order reader, which skips it, so that an answer
 * written under the quote still counts.
 */
char *mail_own_text(const char *text);

#endif
