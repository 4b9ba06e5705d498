module example.com/sibling

go 1.22
