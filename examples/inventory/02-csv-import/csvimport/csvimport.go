// Package csvimport loads stock into an [inventory.Store] from CSV files,
// such as the stock exports of a point-of-sale system.
//
// The first row is a header naming the columns sku, name and quantity, in
// any order; other columns are ignored. Each following row is one item.
package csvimport

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"example.com/inventory"
)

// columns are the header names Load requires.
var columns = []string{"sku", "name", "quantity"}

// Load reads the items of CSV data from r, in file order. It returns an
// error if the header lacks one of the required columns, and an error
// naming the line for a row with an empty SKU or a quantity that is not a
// positive integer.
func Load(r io.Reader) ([]inventory.Item, error) {
	cr := csv.NewReader(r)
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, errors.New("csvimport: missing header row")
	}
	if err != nil {
		return nil, fmt.Errorf("csvimport: read header: %w", err)
	}
	index := make(map[string]int, len(columns))
	for i, name := range header {
		index[strings.ToLower(strings.TrimSpace(name))] = i
	}
	for _, c := range columns {
		if _, ok := index[c]; !ok {
			return nil, fmt.Errorf("csvimport: header has no %q column", c)
		}
	}
	var items []inventory.Item
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return items, nil
		}
		if err != nil {
			return nil, fmt.Errorf("csvimport: %w", err)
		}
		line, _ := cr.FieldPos(0)
		it := inventory.Item{
			SKU:  strings.TrimSpace(rec[index["sku"]]),
			Name: strings.TrimSpace(rec[index["name"]]),
		}
		if it.SKU == "" {
			return nil, fmt.Errorf("csvimport: line %d: empty sku", line)
		}
		q, err := strconv.Atoi(strings.TrimSpace(rec[index["quantity"]]))
		if err != nil || q <= 0 {
			return nil, fmt.Errorf("csvimport: line %d: quantity %q is not a positive integer", line, rec[index["quantity"]])
		}
		it.Quantity = q
		items = append(items, it)
	}
}

// Import reads items from r with [Load] and adds each to s with
// [inventory.Store.Add]. It returns the number of items added. If Load
// fails, Import adds nothing and returns its error.
func Import(s *inventory.Store, r io.Reader) (int, error) {
	items, err := Load(r)
	if err != nil {
		return 0, err
	}
	for i, it := range items {
		if err := s.Add(it); err != nil {
			return i, fmt.Errorf("csvimport: %w", err)
		}
	}
	return len(items), nil
}
