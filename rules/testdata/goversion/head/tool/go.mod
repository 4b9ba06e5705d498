module example.com/kv/tool

go 1.16
