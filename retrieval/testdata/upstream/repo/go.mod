module example.com/app

go 1.22

require (
	example.com/Upper v0.1.0
	example.com/dep v1.2.0
	example.com/local v1.0.0
	example.com/missing v0.3.0
	example.com/old v1.0.0
	example.com/pinned v1.0.0
)

require example.com/indirect v1.0.0 // indirect

// A replacement of all versions.
replace example.com/old => example.com/fork v1.1.0

// A local-path replacement: skipped.
replace example.com/local => ../local

// A replacement of another version: not applied.
replace example.com/dep v1.1.0 => example.com/nowhere v9.9.9

// The exact version wins over all versions, whatever the order.
replace example.com/pinned => example.com/nowhere v9.9.9

replace example.com/pinned v1.0.0 => example.com/dep v1.1.0
