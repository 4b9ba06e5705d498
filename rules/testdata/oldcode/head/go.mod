module example.com/app/v3

go 1.22
