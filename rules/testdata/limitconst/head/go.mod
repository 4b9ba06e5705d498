module example.com/proxy

go 1.22
