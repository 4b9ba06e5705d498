module example.com/real

go 1.22
