module example.com/key

go 1.22
