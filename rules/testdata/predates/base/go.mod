module example.com/vault

go 1.22
