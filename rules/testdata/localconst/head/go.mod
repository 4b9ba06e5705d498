module example.com/backoff

go 1.22
