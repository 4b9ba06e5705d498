module example.com/restatesreal

go 1.22
