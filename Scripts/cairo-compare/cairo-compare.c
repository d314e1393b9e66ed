// The four loaders drawn by cairo 1.16 with the geometry of shared/spec/loaders.md,
// timed per frame over one animation cycle at 30 fps: the yardstick of issue 3
// ("a damage-only frame costs at least 10x less CPU than cairo redrawing it").
// Not part of the build or the tests. The radar sweep uses a mesh pattern of 90
// patches (cairo 1.16 has no conic gradient).
//
//     apt-get install libcairo2-dev
//     gcc -O2 -o /tmp/cairo-compare Scripts/cairo-compare/cairo-compare.c $(pkg-config --cflags --libs cairo) -lm
//     /tmp/cairo-compare   # then: swift run -c release fbanim-bench
//
// With arguments it is the whole-process peer of `fbanim --device
// 'sim:WxH:FORMAT?clock=virtual' --fps 30 --duration D LOADER`: it draws
// FRAMES frames (t = i/30 s from 0) of LOADER at WxH in FORMAT (xrgb8888 or
// rgb565) and SCALE, prints nothing, and exits (Scripts/perf-compare.sh
// times both processes):
//
//     /tmp/cairo-compare radar 800x480 xrgb8888 1 600
#include <cairo.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_PROCESS_CPUTIME_ID,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static double bez(double s,double p1,double p2){double u=1-s;return 3*u*u*s*p1+3*u*s*s*p2+s*s*s;}
static double ease(double x,double x1,double y1,double x2,double y2){if(x<=0)return 0;if(x>=1)return 1;double lo=0,hi=1,s=x;for(int i=0;i<60;i++){s=(lo+hi)/2;if(bez(s,x1,x2)<x)lo=s;else hi=s;}return bez(s,y1,y2);}
static void rgb(cairo_t*c,unsigned v,double a){cairo_set_source_rgba(c,((v>>16)&255)/255.0,((v>>8)&255)/255.0,(v&255)/255.0,a);}
static void ring(cairo_t*c,double t){cairo_set_line_width(c,16);rgb(c,0xEBEBF5,0.3);cairo_arc(c,0,0,82,0,2*M_PI);cairo_stroke(c);
 double p=t<0.5?0:ease(fmod(t-0.5,30)/30,0,0,0.58,1); if(p<=0)return; cairo_set_line_cap(c,CAIRO_LINE_CAP_ROUND);rgb(c,0xFF2F92,0.5);
 cairo_arc(c,0,0,82,-M_PI/2,-M_PI/2+2*M_PI*p);cairo_stroke(c);}
static void radar(cairo_t*c,double t){cairo_set_line_width(c,2);rgb(c,0x34C759,1);cairo_arc(c,0,0,99,0,2*M_PI);cairo_stroke(c);
 double th=2*M_PI*fmod(t/3,1); cairo_pattern_t*m=cairo_pattern_create_mesh(); int n=90; for(int i=0;i<n;i++){double a0=th-M_PI+M_PI*i/n,a1=th-M_PI+M_PI*(i+1)/n;
 cairo_mesh_pattern_begin_patch(m);cairo_mesh_pattern_move_to(m,0,0);cairo_mesh_pattern_line_to(m,100*cos(a0),100*sin(a0));cairo_mesh_pattern_line_to(m,100*cos(a1),100*sin(a1));cairo_mesh_pattern_line_to(m,0,0);
 double al0=(double)i/n,al1=(double)(i+1)/n; cairo_mesh_pattern_set_corner_color_rgba(m,0,0.204*al0,0.78*al0,0.349*al0,al0);cairo_mesh_pattern_set_corner_color_rgba(m,1,0.204,0.78,0.349,al0);cairo_mesh_pattern_set_corner_color_rgba(m,2,0.204,0.78,0.349,al1);cairo_mesh_pattern_set_corner_color_rgba(m,3,0.204,0.78,0.349,al1);cairo_mesh_pattern_end_patch(m);}
 cairo_set_source(c,m);cairo_arc(c,0,0,100,0,2*M_PI);cairo_fill(c);cairo_pattern_destroy(m);}
static void heart(cairo_t*c,double x,double y){double k=12;double P[6][6]={{-0.2,0.7,-1,0.2,-1,-0.35},{-1,-0.8,-0.55,-0.95,-0.5,-0.95},{-0.25,-0.95,-0.05,-0.8,0,-0.55},{0.05,-0.8,0.25,-0.95,0.5,-0.95},{0.55,-0.95,1,-0.8,1,-0.35},{1,0.2,0.2,0.7,0,0.9}};
 cairo_move_to(c,x,y+0.9*k);for(int i=0;i<6;i++)cairo_curve_to(c,x+P[i][0]*k,y+P[i][1]*k,x+P[i][2]*k,y+P[i][3]*k,x+P[i][4]*k,y+P[i][5]*k);cairo_close_path(c);rgb(c,0xFF9500,1);cairo_fill(c);}
static void orbit(cairo_t*c,double t){cairo_set_line_width(c,2);rgb(c,0x5856D6,1);cairo_arc(c,0,0,100,0,2*M_PI);cairo_stroke(c);
 double a=2*M_PI*fmod(t/5,1),b=2*M_PI*fmod(t/2,1);heart(c,100*cos(a),100*sin(a));heart(c,100*cos(b),100*sin(b));}
static double mix(int i,double t){if(t<0.15)return 0;double n=floor(t/0.15)-1;double back=fmod(n-i,12);if(back<0)back+=12;double k=n-back;if(k<0)return 0;double a=0.15*(k+1);
 return ease((t-a)/1.5,0.42,0,1,1)-ease((t-a-0.15)/1.5,0.42,0,1,1);}
static void rrect(cairo_t*c,double x,double y,double w,double h,double r){cairo_new_sub_path(c);cairo_arc(c,x+w-r,y+r,r,-M_PI/2,0);cairo_arc(c,x+w-r,y+h-r,r,0,M_PI/2);cairo_arc(c,x+r,y+h-r,r,M_PI/2,M_PI);cairo_arc(c,x+r,y+r,r,M_PI,1.5*M_PI);cairo_close_path(c);}
static void spinner(cairo_t*c,double t){for(int i=0;i<12;i++){double m=mix(i,t);cairo_save(c);cairo_rotate(c,M_PI/6*i);double s=1-0.5*m;cairo_scale(c,s,s);cairo_translate(c,40-30*m,70-70*m);
 rrect(c,-10,-25,20,50,10);cairo_set_line_width(c,8);double r=142 + m*(255-142),g=142 + m*(255-142),b=147 + m*(255-147);cairo_set_source_rgb(c,r/255,g/255,b/255);cairo_stroke(c);cairo_restore(c);}}
static int whole(int argc,char**argv,const char*names[4],void(*f[4])(cairo_t*,double)){int l=-1,w=0,h=0;
 if(argc!=6){fprintf(stderr,"usage: cairo-compare [ring|radar|spinner|orbit WxH xrgb8888|rgb565 SCALE FRAMES]\n");return 64;}
 for(int i=0;i<4;i++)if(!strcmp(argv[1],names[i]))l=i;
 cairo_format_t fmt=!strcmp(argv[3],"xrgb8888")?CAIRO_FORMAT_RGB24:!strcmp(argv[3],"rgb565")?CAIRO_FORMAT_RGB16_565:CAIRO_FORMAT_INVALID;
 double sc=atof(argv[4]);int n=atoi(argv[5]);
 if(l<0||sscanf(argv[2],"%dx%d",&w,&h)!=2||w<1||h<1||fmt==CAIRO_FORMAT_INVALID||sc<=0||n<1){
  fprintf(stderr,"usage: cairo-compare [ring|radar|spinner|orbit WxH xrgb8888|rgb565 SCALE FRAMES]\n");return 64;}
 cairo_surface_t*s=cairo_image_surface_create(fmt,w,h);cairo_t*c=cairo_create(s);
 for(int i=0;i<n;i++){cairo_identity_matrix(c);cairo_set_source_rgb(c,0,0,0);cairo_paint(c);cairo_translate(c,w/2.0,h/2.0);cairo_scale(c,sc,sc);f[l](c,i/30.0);}
 cairo_surface_flush(s);cairo_destroy(c);cairo_surface_destroy(s);return 0;}
int main(int argc,char**argv){const char*names[4]={"ring","radar","spinner","orbit"};void(*f[4])(cairo_t*,double)={ring,radar,spinner,orbit};double cyc[4]={30.5,3,1.8,10};
 if(argc>1)return whole(argc,argv,names,f);
 struct{int w,h;cairo_format_t fmt;double s;const char*n;}cs[2]={{320,240,CAIRO_FORMAT_RGB16_565,1,"320x240 rgb565"},{800,480,CAIRO_FORMAT_RGB24,2,"800x480 xrgb8888"}};
 for(int k=0;k<2;k++)for(int l=0;l<4;l++){cairo_surface_t*s=cairo_image_surface_create(cs[k].fmt,cs[k].w,cs[k].h);cairo_t*c=cairo_create(s);
  int n=(int)(cyc[l]*30);double t0=now();for(int i=0;i<n;i++){cairo_identity_matrix(c);cairo_set_source_rgb(c,0,0,0);cairo_paint(c);cairo_translate(c,cs[k].w/2.0,cs[k].h/2.0);cairo_scale(c,cs[k].s,cs[k].s);f[l](c,cyc[l]+i/30.0);}
  double us=(now()-t0)/n*1e6;printf("%-8s %-18s %8.1f us/frame\n",names[l],cs[k].n,us);

  cairo_destroy(c);cairo_surface_destroy(s);}}
