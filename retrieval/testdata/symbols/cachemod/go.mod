module example.com/cachemod

go 1.22

require github.com/thirdparty/metrics v1.0.0
