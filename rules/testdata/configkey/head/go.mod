module example.com/collector

go 1.22
