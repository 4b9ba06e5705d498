module example.com/conn

go 1.22
