module example.com/knob

go 1.22
