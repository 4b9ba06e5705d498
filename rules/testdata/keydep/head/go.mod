module example.com/exporter

go 1.22

require example.com/retry v1.2.0
