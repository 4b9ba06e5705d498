module example.com/obj

go 1.22
