module example.com/btree

go 1.22
