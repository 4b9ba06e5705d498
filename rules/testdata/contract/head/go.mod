module example.com/stock

go 1.22
