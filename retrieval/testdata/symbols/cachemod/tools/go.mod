module example.com/cachemod/tools

go 1.22
