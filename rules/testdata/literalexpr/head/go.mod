module example.com/kcp

go 1.22
