module example.com/txn

go 1.22
