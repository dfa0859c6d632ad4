# fuzz targets: simulator inputs
