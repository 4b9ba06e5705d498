// Command shop manages a shop's stock.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("usage: shop <command> [flags]")
	}
	switch args[0] {
	case "stock":
		return stock(args[1:])
	case "order":
		return order(args[1:])
	case "help", "-h", "--help":
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func stock(args []string) error {
	fs := flag.NewFlagSet("shop stock", flag.ContinueOnError)
	verbose := fs.Bool("verbose", false, "list every item")
	var format string
	fs.StringVar(&format, "format", "text", "output format")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Println(*verbose, format)
	return nil
}

func order(args []string) error {
	fs := flag.NewFlagSet("shop order", flag.ContinueOnError)
	qty := fs.Int("quantity", 1, "how many")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Println(*qty)
	return nil
}
