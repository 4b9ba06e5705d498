module example.com/db

go 1.22
