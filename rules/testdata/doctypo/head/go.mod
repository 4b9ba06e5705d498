module example.com/eventlog

go 1.22
