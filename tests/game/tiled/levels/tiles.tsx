<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="tiles" tilewidth="16" tileheight="16" tilecount="24" columns="8">
 <image source="../../../../assets/tiles.png" width="128" height="48"/>
</tileset>
