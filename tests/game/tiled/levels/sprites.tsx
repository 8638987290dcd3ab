<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.8" tiledversion="1.8.2" name="sprites" tilewidth="16" tileheight="16" tilecount="40" columns="8">
 <image source="../../../../assets/sprites.png" width="128" height="80"/>
</tileset>
