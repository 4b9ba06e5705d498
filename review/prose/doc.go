// Package prose reads documentation text the way every part of docreview
// needs it read: sentences ([Sentences]), numbers with units and number
// words ([Literals], [CanonUnit], [NameUnit]), the words of Go names and
// how alike two names are ([Words], [NameSimilarity], [CodeShaped]), and
// Go doc links ([DocLinks]). The extractor, the rules and the
// completeness facts all read prose through it, so a sentence, a unit or
// a name means the same thing to each of them.
//
// The package imports only the standard library.
package prose
