# expect: HG006@2:10
count = 2;
