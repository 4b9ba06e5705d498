module example.com/tree

go 1.22
