module example.com/cluster

go 1.22
