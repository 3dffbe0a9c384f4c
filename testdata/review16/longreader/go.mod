module example.com/longreader

go 1.22
