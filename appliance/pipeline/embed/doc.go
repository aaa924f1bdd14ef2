// Package embed is Hearth's built-in offline embedder: deterministic text
// vectors with no model file, so semantic search works on an appliance that
// never goes online.
//
// A text becomes a bag of weighted features (stemmed words, word bigrams,
// character 3- and 4-grams of each word, the meaning classes of each word,
// CJK character unigrams and bigrams), and every feature is hashed to a few
// signed dimensions of a fixed-size vector (the hashing trick), which is then
// L2-normalised. It matches shared words, inflections and misspellings, and,
// through a hand-written table of meaning classes (conceptTable: "kid",
// "son" and "daughter" are a child; "piano" and "recital" are music), the
// everyday synonyms and kinds of things a household talks about; words
// outside the table match only by their letters. Its job is to make the
// vector half of hybrid search useful when no embedding endpoint is
// configured.
//
// Vectors are stored and never recomputed while Model is unchanged, so
// everything that shapes them (tokeniser, stemmer, word lists, weights,
// hashing) is fixed; changing any of it means bumping algoVersion.
package embed
