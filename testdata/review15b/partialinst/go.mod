module example.com/partialinst

go 1.25
