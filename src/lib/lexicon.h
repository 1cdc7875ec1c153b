/* lexicon.h: the order words of each language: a line a player wrote in hers read in English (JOUER 7 -> PLAY 7), an order written in hers (PLAY 7 -> JOUER 7), from the catalogues' word.SCOPE.WORD phrases. */
#ifndef NGOMA_LEXICON_H
#define NGOMA_LEXICON_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A catalogue gives a word as word.SCOPE.ENGLISH: the scope "common" (the
 * orders every game takes), "lobby" (the lobby's commands) or a game
 * module's name; ENGLISH the word in lower case, dashes for spaces
 * ("word.common.no-draw"). Its text is the word in that language, then
 * other spellings after bars: "JOUER|JOUE", each at most eight words.
 * Accents and case never count.
 */

/* line read in English: its first words when they are a word of lang in
 * scope or in game (either may be NULL); after a game's word, each later
 * word of the game's too. English words stay as they are. Owned. */
char *lexicon_english(const char *lang, const char *scope, const char *game, const char *line);
/* The English of the word (or words) of lang in scope or game that line
 * begins with, in capitals ("PRESS TO"); NULL for none. Nothing is
 * allocated: a cheap look before lexicon_english. */
const char *lexicon_word(const char *lang, const char *scope, const char *game, const char *line);
/* The same, and how far those words reach in line (*len). */
const char *lexicon_word_len(const char *lang, const char *scope, const char *game, const char *line, size_t *len);
/* The first len bytes of line read in English in whichever language's
 * words of scope it begins with (English's are English already), when
 * wanted (NULL: any) takes the English of those words;
 * NULL when it begins with none. Written for every line of every mail
 * (the writer's language is not known yet): its first words are looked
 * at in place, and only a line that holds such words is copied. Owned. */
char *lexicon_english_any(const char *scope, const char *line, size_t len, bool (*wanted)(const char *english));
/* English orders (a game's or common ones, a line each) with each word
 * lang's catalogue gives for game or scope written in lang. Owned. */
char *lexicon_local(const char *lang, const char *scope, const char *game, const char *order);

#endif
