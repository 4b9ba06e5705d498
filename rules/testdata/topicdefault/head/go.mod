module example.com/kafka

go 1.22
