module example.com/orm

go 1.22
