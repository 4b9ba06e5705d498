// Package dep is the fixture dependency of docreview's upstream tests:
// a small cache.
//
// Its doc comment spans several lines.
package dep
