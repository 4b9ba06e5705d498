module example.com/kv

go 1.22.0
