module example.com/paramdefault

go 1.22
