module example.com/sdk/v2
