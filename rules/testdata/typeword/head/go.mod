module example.com/metric

go 1.22
