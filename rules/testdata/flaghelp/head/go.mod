module example.com/flaghelp

go 1.22

require github.com/spf13/pflag v1.0.5
