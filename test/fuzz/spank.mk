# fuzz targets: SPANK option parsers
