// Command uploadd receives uploads, with the standard flag package.
package main

import (
	"flag"
	"time"
)

func main() {
	timeout := flag.Int64("timeout", 6*1000, "Read timeout for connections in milliseconds")
	dir := flag.String("upload-dir", "./data", "Directory to store uploads in")
	grace := flag.Duration("grace", 30*time.Second, "How long to wait for uploads to finish on shutdown")
	verbose := flag.Bool("v", false, "Verbose output")
	ratio := flag.Float64("ratio", 0.9, "Share of memory to use")
	flag.Parse()
	_, _, _, _, _ = timeout, dir, grace, verbose, ratio
}
