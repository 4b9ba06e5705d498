module example.com/lost

go 1.22
