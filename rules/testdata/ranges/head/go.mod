module example.com/codec

go 1.22
