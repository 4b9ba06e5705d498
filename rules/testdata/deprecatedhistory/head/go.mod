module example.com/chi

go 1.22
