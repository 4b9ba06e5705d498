module example.com/kgo

go 1.22
