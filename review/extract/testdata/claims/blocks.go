/*
Package blocks documents with block comments.

Run it like this:

	blocks --verbose -n 3 ./data/in.txt

Then read the output.
*/
package blocks

/* Frobnicate frobs for up to 2 hours. */
func Frobnicate() {}
