print('contract')
