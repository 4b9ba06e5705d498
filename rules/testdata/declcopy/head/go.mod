module example.com/mw

go 1.22
