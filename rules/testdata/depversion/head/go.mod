module example.com/store

go 1.22

require example.com/sdk/v2 v2.0.0
