module example.com/siglisting

go 1.22
