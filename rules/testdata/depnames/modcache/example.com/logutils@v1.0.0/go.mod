module example.com/logutils
